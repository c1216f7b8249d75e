"""The WSGI layers around the Flask app, and the hooks it runs before any view.

From the outside in, as ``create_app`` stacks them:

- ``security``: the envelope every answer passes through (security headers, the request id,
  the access log; CORS and the trusted proxies);
- ``compression``: Brotli or gzip for every answer worth it, as ``Accept-Encoding`` allows;
- ``fast_preview`` and ``fast_reads``: the requests answered before Flask (settlement previews,
  table polls), only ever with the answer Flask would give;
- ``limits``: rate limits and the guard on request bodies, as Flask hooks;
- ``rendered``: the per-worker cache of rendered table views, which the table resource fills
  and the fast reads answer from.

The HTTP resources themselves are in ``service.api``.
"""
