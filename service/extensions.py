"""Extension singletons, created once and bound to an app in ``create_app``."""

from typing import TYPE_CHECKING, ClassVar

from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from sqlalchemy import MetaData, Table
from sqlalchemy.orm import DeclarativeBase

# Stable constraint names keep Alembic migrations reviewable and reversible.
NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)
    if TYPE_CHECKING:  # every row class here maps a Table (none a join or a select)
        __table__: ClassVar[Table]


db = SQLAlchemy(model_class=Base)
migrate = Migrate()

# The rows' base class. At run time it is ``db.Model``: ``Base`` with Flask-SQLAlchemy's mixins,
# a class made when ``db`` is, which a type checker cannot see into; it is shown ``Base``, whose
# SQLAlchemy 2 typing is all that the rows' columns need.
if TYPE_CHECKING:
    Model = Base
else:
    Model = db.Model
