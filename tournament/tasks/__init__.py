"""Background work the web server only queues: the heavy documents and the players' mails."""
