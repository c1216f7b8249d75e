"""The baseline of bench/http_load.py: a bare Flask app that only parses and returns JSON."""

from __future__ import annotations

from flask import Flask, jsonify, request

app = Flask(__name__)


@app.post("/echo")
def echo():  # type: ignore[no-untyped-def]
    return jsonify(request.get_json()), 201


@app.get("/item")
def item():  # type: ignore[no-untyped-def]
    return jsonify({"id": "bare", "version": 1, "seats": [0, 1, 2, 3]})
