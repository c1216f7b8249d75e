"""The WSGI layers around the Flask app, and the hooks it runs before any view.

From the outside in, as ``create_app`` stacks them:

- ``security``: the envelope every answer passes through (security headers, the request id,
  the access log; CORS and the trusted proxies);
- ``compression``: Brotli or gzip for every answer worth it, as ``Accept-Encoding`` allows;
- ``early``: the requests answered before Flask (a table's polls, its stream's tickets and
  openings), by the functions Flask's views answer them with (``answers``): only ever Flask's
  answer;
- ``limits``: rate limits (Flask hooks, and asked by the early answers) and the guard on
  request bodies;
- ``rendered``: the per-worker cache of rendered table views, which the table resource fills
  and the early polls answer from.

The HTTP resources themselves are in ``service.api``.
"""
