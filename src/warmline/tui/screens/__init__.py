"""Screens of the cockpit, one module each."""
