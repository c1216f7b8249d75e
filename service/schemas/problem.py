"""RFC 9457 problem details, the body of every error response."""

from marshmallow import Schema, fields


class ProblemSchema(Schema):
    type = fields.String(metadata={"description": "A URI naming the kind of problem."})
    title = fields.String(metadata={"description": "Short summary of the kind of problem."})
    status = fields.Integer(metadata={"description": "The HTTP status code."})
    detail = fields.String(metadata={"description": "What went wrong this time.",
                                     "maxLength": 2000})
    errors = fields.Dict(
        keys=fields.String(metadata={"maxLength": 200}),
        values=fields.List(fields.String(), metadata={"maxItems": 10}),
        metadata={"description": "Each bad field, by JSON path (`hand.tricks`), with its "
                                 "messages.", "maxProperties": 50})
