"""``flask`` commands of the project."""

from __future__ import annotations

import click
from flask import Flask


def register(app: Flask) -> None:
    @app.cli.command("write-openapi")
    @click.argument("path", default="openapi.yaml")
    def write_openapi(path: str) -> None:
        """Write the generated OpenAPI document (YAML) to PATH."""
        from .api.docs import spec_yaml

        with open(path, "w", encoding="utf-8") as fh:
            fh.write(spec_yaml())
        click.echo(f"wrote {path}")
