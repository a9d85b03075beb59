"""Model APIs of this package: local GGUF models through a llama.cpp server, with no key."""
