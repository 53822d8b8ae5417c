"""A whole tournament as one versioned file (JSON in a zip): moved to another laptop, or its
public part published to the results service."""
