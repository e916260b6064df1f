"""MindSpore's `ops._utils`: shape helpers its bprops and user primitives import."""
