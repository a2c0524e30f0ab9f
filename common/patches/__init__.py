"""Code that reaches into a library's private parts, one module per patch,
each kept only while a benchmark's target is missed without it
(docs/patches.md) and each with a test that fails if an upgrade breaks it
(tests/common/test_patches.py)."""
