"""Fuzz targets, shared by the property tests and the atheris runner."""
