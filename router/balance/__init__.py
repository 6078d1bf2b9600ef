"""Deployments of a provider: which one answers a request (``weighted``, ``least_busy``, ``latency``, ``usage``,
sticky conversations), and each deployment's health. ``Balancer`` is the step a chain calls; the
strategies are one module each behind ``base.Strategy``."""

from router.balance.balancer import Balancer, Flights
from router.balance.base import Choice, Member, Pool, Strategy

__all__ = ["Balancer", "Choice", "Flights", "Member", "Pool", "Strategy"]
