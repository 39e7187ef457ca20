"""`warmline web`: the cockpit served to a browser, one cockpit process per tab.

Built on textual-serve (the optional `web` extra): its aiohttp server speaks to the page's
xterm.js over a WebSocket and to each cockpit over pipes, with Textual's web driver. What
we change in it, and why, is said where it is changed:
- `access`: the one-time link, the cookie, the Host and Origin checks, the headers;
- `session`: how a cockpit is started (no shell, a kept environment, the key on a pipe);
- `spare`: one cockpit started ahead of the next tab, claimed by it (`warmline.claim`);
- `client`: textual-serve's page client, served to draw with xterm.js's DOM renderer;
- `server`: the routes, our own page, the session cap, binding and stopping;
- `window`: opening the link in the system's browser, as an app window where it can.

Only `warmline.commands.web` imports this package, inside the command: its packages are
an optional extra, and `warmline --help` must not load them.
"""
