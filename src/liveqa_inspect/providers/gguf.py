"""`gguf/...` (registered by the entry point, _registry.py): a GGUF file on a llama.cpp server it
starts, or one the user runs. A started server's `base_url` is `local-gguf:FILE#sha256=...`, not
its port: Inspect's cache key then names the weights, and `inspect eval-retry` hands a role's
back here, where a changed file is refused. The evaluated model's is not logged, so a log
answered by two files is named at its end."""

import logging
import os
from collections import Counter, defaultdict
from functools import cache
from typing import Any

import httpx
from inspect_ai.event import ModelEvent
from inspect_ai.hooks import Hooks, TaskEnd, hooks
from inspect_ai.model import GenerateConfig, ModelOutput
from inspect_ai.util import warn_once
from typing_extensions import override

from liveqa_inspect._inspect_private import OpenAICompatibleAPI, say_under_display_none
from liveqa_inspect.caveats import too_small
from liveqa_inspect.errors import LiveQAError, changed
from liveqa_inspect.providers.server import (
    START_TIMEOUT,
    LocalServer,
    ModelFile,
    model_file,
    server_for,
)

logger = logging.getLogger(__name__)

SERVICE = "gguf"
LAUNCHED = "local-gguf:"  # the recorded `base_url` of a server this provider started
DIGEST = "#sha256="
MODEL_FILE, SHA256 = "model_file", "model_sha256"  # in the metadata of a started server's output


def identity(model: ModelFile) -> str:
    return f"{LAUNCHED}{model.path.name}{DIGEST}{model.sha256}"


def user_server(base_url: str | None) -> str | None:
    """The URL of a server the user runs, if they named one (not one this provider started)."""
    url = base_url or os.environ.get("GGUF_BASE_URL")
    return None if url is None or url.startswith(LAUNCHED) else url


def check_same_weights(recorded: str | None, model: ModelFile) -> None:
    """A run retried or resumed from a log must use the weights the log names."""
    if recorded is None or not recorded.startswith(LAUNCHED):
        return
    expected = recorded.rpartition(DIGEST)[2]
    if expected != model.sha256:
        consequence = "the rest of the run would be answered by other weights."
        raise LiveQAError(changed(model.path, expected, model.sha256, consequence))


@cache
def name_mixed_weights() -> None:
    """Once a server starts: Inspect announces a hook registered at import on every run."""
    hooks(name="gguf_weights", description="Names the GGUF files a log's samples ran on.")(
        MixedWeights
    )


class GGUFAPI(OpenAICompatibleAPI):
    """`-M` options other than `start_timeout` go to the server (`llama_cpp.server --help`)."""

    def __init__(
        self,
        model_name: str,
        base_url: str | None = None,
        api_key: str | None = None,
        config: GenerateConfig | None = None,
        start_timeout: float = START_TIMEOUT,
        **server_options: Any,
    ) -> None:
        say_under_display_none(LiveQAError)  # a run of ours: a judge that cannot be made says so
        self.server: LocalServer | None = None
        url = user_server(base_url)
        if url is None:
            model = model_file(model_name)
            check_same_weights(base_url, model)
            if model.is_smollm2_135m:  # said once a model name, however many roles use it
                warn_once(logger, too_small(f"{SERVICE}/{model_name}"))
            self.server = server_for(model, server_options, start_timeout)
            url = self.server.url
            name_mixed_weights()
        else:  # asked once: requests to a closed port are retried until the run is killed
            try:
                httpx.get(f"{url.rstrip('/')}/models", timeout=10.0)
            except (httpx.ConnectError, httpx.ConnectTimeout, httpx.UnsupportedProtocol) as error:
                raise LiveQAError(
                    f"No server answers at {url} ({error}). Start it, or correct the URL "
                    "(--model-base-url, the role's base_url, or GGUF_BASE_URL)."
                ) from None
            except httpx.HTTPError:
                pass  # something answered: the run's own requests say what, if anything, is wrong
        super().__init__(model_name, url, api_key or "no-key", config or GenerateConfig(), SERVICE)
        if self.server is not None:
            # The client is made (above) with the server's address; from here on `base_url` is
            # read only by the log and the cache key, which should name the weights, not a port.
            self.base_url = identity(self.server.model)

    @override
    async def generate(self, *args: Any, **kwargs: Any) -> Any:
        if (server := self.server) is None:
            return await super().generate(*args, **kwargs)
        async with server.turn():
            if not server.alive():  # died during an earlier request: no need to knock
                raise server.died()
            try:
                result = await super().generate(*args, **kwargs)
            except Exception as error:
                if not server.alive():
                    raise server.died() from error
                raise
        output = result[0] if isinstance(result, tuple) else result
        if isinstance(output, ModelOutput):
            weights = {MODEL_FILE: server.model.path.name, SHA256: server.model.sha256}
            output.metadata = {**(output.metadata or {}), **weights}
        return result


class MixedWeights(Hooks):
    """A log retried after its model's file changed holds the answers of two models: said in one
    line, with both digests (each model event records its own)."""

    async def on_task_end(self, data: TaskEnd) -> None:
        samples = data.log.samples or []
        files: defaultdict[str, Counter[str]] = defaultdict(Counter)
        for sample in samples:
            calls = [e for e in sample.events if isinstance(e, ModelEvent)]
            for model, digest in {(e.model, (e.output.metadata or {}).get(SHA256)) for e in calls}:
                if digest is not None:
                    files[model][digest] += 1
        for model, counts in files.items():
            each = [f"sha256 {sha} in {n} of {len(samples)} samples" for sha, n in counts.items()]
            if len(each) > 1:
                logger.warning(
                    f"{model} ran on {len(each)} different files in this log ({'; '.join(each)}): "
                    "its samples hold the answers of different weights."
                )
