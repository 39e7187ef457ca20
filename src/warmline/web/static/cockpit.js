// The page around the cockpit (templates/cockpit.html).
//
// textual-serve's client (loaded just before this) starts the terminal on the window's load.
// xterm.js measures each glyph's width once, in the face it draws with; a face not loaded by
// then is measured in a fallback font, and text later drawn in the real face drifts from its
// cells (a row with italic text in it ended ~7 px short, and everything right of the italics
// was shifted). So the client starts once the cockpit's faces are loaded; if they cannot
// be, it starts anyway, as before.
const FACES = ['1em "Roboto Mono"', 'bold 1em "Roboto Mono"', 'italic 1em "Roboto Mono"', 'italic bold 1em "Roboto Mono"'];
const startClient = window.onload;
window.onload = (event) => {
  Promise.all(FACES.map((face) => document.fonts.load(face)))
    .catch(() => undefined)
    .finally(() => startClient && startClient(event));
};

// The terminal takes the keyboard once the cockpit has drawn its first bytes (textual-serve's
// client marks the body "-first-byte"), so the rep can type without a click. Not sooner:
// the client tells the cockpit about the focus over the WebSocket, which is open by then.
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
