"""Publishing from the hall: the laptop sends the public state of its tournaments to a results
service on the internet whenever a connection exists (see protocol.py for the wire format)."""
