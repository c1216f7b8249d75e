"""Use cases. Each takes plain values, owns its transaction and returns plain values."""
