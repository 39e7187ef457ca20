"""Moves data between the store and the api: outbox flush, refresh, job polling, scheduler."""
