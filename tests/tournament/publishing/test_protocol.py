"""The wire between hall and results service: the key a director pastes, and the signature
that lets the service refuse forged, tampered and foreign requests."""

from tournament.publishing import protocol


def test_a_new_key_survives_being_pasted_with_spaces_around_it():
    key = protocol.new_key()
    assert protocol.parse_key(f"  {key}\n") == key
    assert str(key).startswith("kd1.")


def test_text_that_is_not_a_key_is_refused():
    key = protocol.new_key()
    for text in ["", "kd1", str(key)[:-20], str(key).replace("kd1.", "kd2."), f"{key} extra"]:
        assert protocol.parse_key(text) is None, text


def test_the_signature_covers_key_tournament_sequence_and_body():
    key = protocol.new_key()
    headers = protocol.signed_headers(key, "uid-1", 7, b"body")
    sig = headers[protocol.HEADER_SIGNATURE]
    assert protocol.verify(key.secret, key.key_id, "uid-1", 7, b"body", sig)
    # Each part changed on the way: refused.
    assert not protocol.verify(key.secret, key.key_id, "uid-1", 7, b"bodY", sig)
    assert not protocol.verify(key.secret, key.key_id, "uid-1", 8, b"body", sig)
    assert not protocol.verify(key.secret, key.key_id, "uid-2", 7, b"body", sig)
    other = protocol.new_key()
    assert not protocol.verify(other.secret, key.key_id, "uid-1", 7, b"body", sig)
    assert not protocol.verify(key.secret, other.key_id, "uid-1", 7, b"body", sig)
