"""RFC 9457 problem details, the body of every error response."""

from marshmallow import INCLUDE, Schema, fields


class ProblemSchema(Schema):
    """A problem: ``type`` tells the kind (``about:blank`` when the status says it all), and
    extension members may follow (RFC 9457 §3.2): clients ignore the ones they do not know."""

    class Meta:
        unknown = INCLUDE  # documented as additionalProperties: true

    type = fields.String(
        required=True,
        metadata={
            "description": "A URI naming the kind of problem (`urn:solo:problem:…`, see the API "
            "guide), or `about:blank`.",
            "format": "uri-reference",
            "maxLength": 200,
        },
    )
    title = fields.String(
        required=True,
        metadata={"description": "Short summary of the kind of problem.", "maxLength": 200},
    )
    status = fields.Integer(
        required=True,
        metadata={"description": "The HTTP status code.", "minimum": 400, "maximum": 599},
    )
    detail = fields.String(
        metadata={"description": "What went wrong this time.", "maxLength": 2000}
    )
    instance = fields.String(
        metadata={
            "description": "This occurrence: the request's path.",
            "format": "uri-reference",
            "maxLength": 2000,
        }
    )
    errors = fields.Dict(
        keys=fields.String(metadata={"maxLength": 200}),
        values=fields.List(fields.String(), metadata={"maxItems": 10}),
        metadata={
            "description": "Each bad field, by JSON path (`hand.tricks`), with its messages.",
            "maxProperties": 50,
        },
    )
    next_number = fields.Integer(
        metadata={
            "description": "`hand-number-taken`: the number the next hand gets.",
            "minimum": 1,
        }
    )
    after = fields.Integer(
        metadata={"description": "`cursor-ahead`: the club's last event, to follow on after."}
    )
    links = fields.Dict(
        keys=fields.String(),
        values=fields.String(),
        metadata={"description": "`cursor-ahead`: `reload`, `changes`."},
    )
    etag = fields.String(
        metadata={"description": "`version-mismatch`: the table's current ETag.", "maxLength": 40}
    )
