#!/usr/bin/env python3
"""A Python SDK (`mcp`, pinned in versions.env) server whose tools take pydantic models, to be
captured for tests/fixtures/tool-lists/python-pydantic.json: the schemas pydantic writes
(`$defs` with `$ref`, `anyOf` with `null` for Optional, enums, `Literal`, constrained fields,
nested models, lists of models) are what typed tool bindings must take.

    python py_tools_server.py      # stdio
"""
from enum import Enum
from typing import Annotated, Literal, Optional

from pydantic import BaseModel, Field

from mcp.server.mcpserver import MCPServer

mcp = MCPServer("pydantic-tools")


class Priority(str, Enum):
    low = "low"
    normal = "normal"
    urgent = "urgent"


class Address(BaseModel):
    street: str
    city: str
    postcode: Annotated[str, Field(pattern=r"^[0-9]{5}$", description="Five digits", examples=["69001"])]


class Contact(BaseModel):
    name: Annotated[str, Field(min_length=1, max_length=80)]
    email: Optional[str] = None
    address: Optional[Address] = None


class Order(BaseModel):
    """A delivery order."""

    items: Annotated[list[str], Field(min_length=1)]
    quantity: Annotated[int, Field(ge=1, le=99)] = 1
    priority: Priority = Priority.normal
    contact: Contact
    notes: list[Contact] = []
    channel: Literal["web", "phone"] = "web"


class Receipt(BaseModel):
    order_id: str
    total: float
    eta_minutes: Optional[int] = None


@mcp.tool()
def place_order(order: Order) -> Receipt:
    """Place an order (a nested pydantic model: enum, Literal, Optional, constrained fields)."""
    return Receipt(order_id="o-1", total=9.5 * order.quantity, eta_minutes=30)


@mcp.tool()
def find_contacts(city: Optional[str] = None, limit: Annotated[int, Field(ge=1, le=50)] = 10) -> list[Contact]:
    """Search contacts by city."""
    return [Contact(name="Ana", address=Address(street="1 Main", city=city or "Lyon", postcode="69001"))][:limit]


@mcp.tool()
def set_priority(order_id: str, priority: Priority) -> str:
    """Change an order's priority."""
    return f"{order_id}: {priority.value}"


if __name__ == "__main__":
    mcp.run("stdio")
