"""Small helpers for the pure-ASGI middlewares (they must see every byte of a request)."""

from __future__ import annotations

from dataclasses import dataclass, field

from starlette.types import ASGIApp, Message, Receive, Scope, Send


async def read_body(receive: Receive) -> tuple[bytes, bool]:
    """The whole request body, and whether the client disconnected while sending it."""
    chunks: list[bytes] = []
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return b"".join(chunks), True
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            return b"".join(chunks), False


def replay_receive(body: bytes, receive: Receive) -> Receive:
    """A `receive` that yields the already-read body once, then defers to the real one."""
    sent = False

    async def inner() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return inner


@dataclass
class CapturedResponse:
    status: int = 0
    headers: list[tuple[bytes, bytes]] = field(default_factory=list)
    body: bytes = b""


async def capture(app: ASGIApp, scope: Scope, receive: Receive) -> CapturedResponse:
    """Run the app to completion and keep its response instead of sending it."""
    captured = CapturedResponse()
    chunks: list[bytes] = []

    async def send(message: Message) -> None:
        if message["type"] == "http.response.start":
            captured.status = message["status"]
            captured.headers = list(message.get("headers", []))
        elif message["type"] == "http.response.body":
            chunks.append(message.get("body", b""))

    await app(scope, receive, send)
    captured.body = b"".join(chunks)
    return captured


async def send_captured(
    response: CapturedResponse, send: Send, extra: list[tuple[bytes, bytes]] | None = None
) -> None:
    headers = [*response.headers, *(extra or [])]
    await send({"type": "http.response.start", "status": response.status, "headers": headers})
    await send({"type": "http.response.body", "body": response.body})
