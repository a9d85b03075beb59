"""expert_qa."""
