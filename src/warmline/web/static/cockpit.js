// The page around the cockpit (templates/cockpit.html): the terminal takes the keyboard as
// soon as textual-serve's client has made it (on load), so the rep can type without a click.
window.addEventListener("load", () => {
  setTimeout(() => {
    const input = document.querySelector(".xterm-helper-textarea");
    if (input) input.focus();
  }, 0);
});
