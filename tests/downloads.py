"""Reading a document the site served (tournament/tasks/documents.py): the tests make documents at
once (tests/conftest.py), so a download link answers with the file itself."""


def file_of(response) -> bytes:
    """The bytes of a served document; fails with the page's text when it was none."""
    disposition = response.get("Content-Disposition", "")
    assert disposition.startswith("attachment;"), (response.status_code, response.content[:500])
    if response.streaming:  # a document the worker made, streamed from its file
        return b"".join(response.streaming_content)
    return response.content
