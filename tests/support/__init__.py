"""Helpers shared by the test directories: fakes, wire data, sandboxes, servers.

A package (on the path through pytest's `pythonpath` option) rather than names imported
from a conftest: every `conftest` module has the same name, so `from conftest import ...`
found another directory's fixtures whenever two test directories ran in one session.
Conftest files hold fixtures only; what they and the tests share lives here.
"""
