"""What a rep can do to the service: validate, apply locally, enqueue for delivery."""
