"""Text tables and plots of the results: the only layer that imports matplotlib."""
