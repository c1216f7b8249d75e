"""A club's webhooks: its subscriptions (``subscriptions.py``, the API's use cases), where
they may be sent (``addresses.py``), one signed delivery (``sending.py``) and the deliverer
that takes the outbox to them, leased, in order, with retries (``deliverer.py``).
docs/api.md#webhooks is the receiver's side."""
