"""gunicorn settings; gunicorn reads ./gunicorn.conf.py from its working directory, so
``make serve`` and the tests' real servers use it. Command-line flags still win."""

import gunicorn.http.wsgi
from gunicorn.glogging import Logger

# The Server header names no product and no version (HTTP/1 and HTTP/2 both read this).
gunicorn.http.wsgi.SERVER = "solo"


class AppAccessLog(Logger):
    """The app writes the access log itself (one JSON line per request, with its request id:
    ``service/middleware/security.py``); gunicorn's own line would repeat it in another format, so
    it is dropped even where ``--access-logfile`` is given. Errors are logged as usual."""

    def access(self, resp, req, environ, request_time):
        return


logger_class = AppAccessLog

# Request size limits at the socket, before the app: the request line, the number of headers
# and each header's size (gunicorn's defaults, stated). Bodies are capped by the app (64 KiB).
limit_request_line = 4094
limit_request_fields = 100
limit_request_field_size = 8190

# No runtime control socket (gunicorn >= 25.1 opens one in $HOME by default): one interface
# less to guard, and several servers on one machine (tests, soak) do not share its path.
control_socket_disable = True
