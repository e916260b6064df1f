"""The public classes of rewrite."""
