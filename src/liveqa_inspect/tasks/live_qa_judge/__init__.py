"""live_qa_judge."""
