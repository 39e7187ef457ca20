"""Widgets of the cockpit: the virtual list, the status line, small charts."""
