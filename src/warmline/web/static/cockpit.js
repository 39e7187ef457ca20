// The page around the cockpit (templates/cockpit.html): the terminal takes the keyboard once
// the cockpit has drawn its first bytes (textual-serve's client marks the body "-first-byte"),
// so the rep can type without a click. Not sooner: the client tells the cockpit about the
// focus over the WebSocket, which is open by then.
function focusTerminal() {
  const input = document.querySelector(".xterm-helper-textarea");
  if (input) input.focus();
}

window.addEventListener("load", () => {
  const watcher = new MutationObserver(() => {
    if (document.body.classList.contains("-first-byte")) {
      watcher.disconnect();
      focusTerminal();
    }
  });
  watcher.observe(document.body, { attributes: true, attributeFilter: ["class"] });
});
