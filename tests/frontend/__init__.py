"""Tests of lazynum/frontend."""
