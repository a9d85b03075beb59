"""live_qa."""
