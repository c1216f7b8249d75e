"""marshmallow schemas: the HTTP shapes, translated to and from domain values at the edge."""
