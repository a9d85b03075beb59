"""`gguf/...`: a GGUF model file answering or judging through a llama.cpp server, with no key.

`gguf/smollm2` is the SmolLM2-135M file shipped in a PyPI wheel, for a first run on any machine;
`gguf//abs/path/model.gguf` (or a relative path) is any open-weight model a user downloaded. The
provider starts `llama_cpp.server` on a free port itself, as Inspect's vLLM and SGLang providers
do, and talks to it with Inspect's OpenAI-compatible client. A server the user runs is used
instead when given: `--model-base-url` (for the evaluated model), the role's `base_url`, or
`GGUF_BASE_URL`.

What the log says about a started server: every model output's metadata names the file and its
sha256, and so does the model's `base_url` as a role records it (`local-gguf:FILE#sha256=...`,
in place of a port that changes every run). That string is also in Inspect's cache key, so a
cached judge reply is replayed for the same weights, in any later run, and never for other
weights under the same file name. `inspect eval-retry` hands it back to this provider, which
starts a new server and refuses a file whose digest has changed since.
"""

from __future__ import annotations

import logging
import os
from functools import cache
from typing import Any

from inspect_ai.model import ChatMessage, GenerateConfig, ModelOutput, modelapi
from inspect_ai.tool import ToolChoice, ToolInfo
from typing_extensions import override

from liveqa_inspect._inspect_private import OpenAICompatibleAPI
from liveqa_inspect.providers.model_files import ModelFile, ModelFileError, model_file
from liveqa_inspect.providers.server import START_TIMEOUT, LocalServer, server_for

logger = logging.getLogger(__name__)

SERVICE = "gguf"
LAUNCHED = "local-gguf:"
"""The recorded `base_url` of a server this provider started, before the file's name."""
DIGEST = "#sha256="

SMOKE_TEST_WARNING = (
    "SmolLM2-135M ({model}) has 135M parameters: its answers and its verdicts carry no "
    "meaning. This run is a first run and a smoke test of the pipeline, not a measurement."
)


def identity(model: ModelFile) -> str:
    return f"{LAUNCHED}{model.name}{DIGEST}{model.sha256}"


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
        raise ModelFileError(
            f"{model.path} has changed since the log was written (sha256 {expected} then, "
            f"{model.sha256} now): the rest of the run would be answered by other weights."
        )


@cache
def warn_smoke_test(model: str) -> None:
    """Once a model name per process, however many roles use it."""
    logger.warning(SMOKE_TEST_WARNING.format(model=model))


class GGUFAPI(OpenAICompatibleAPI):
    """Inspect's OpenAI-compatible client, pointed at a llama.cpp server for a GGUF file.

    Model args (`-M`) other than `start_timeout` are the server's own options, e.g.
    `-M n_ctx=4096 -M n_threads=2` (`python -m llama_cpp.server --help` lists them).
    """

    def __init__(
        self,
        model_name: str,
        base_url: str | None = None,
        api_key: str | None = None,
        config: GenerateConfig | None = None,
        start_timeout: float = START_TIMEOUT,
        **server_options: Any,
    ) -> None:
        self.server: LocalServer | None = None
        url = user_server(base_url)
        if url is None:
            model = model_file(model_name)
            check_same_weights(base_url, model)
            if model.is_smollm2_135m:
                warn_smoke_test(f"{SERVICE}/{model_name}")
            self.server = server_for(model, server_options, start_timeout)
            url = self.server.url
        super().__init__(
            model_name=model_name,
            base_url=url,
            api_key=api_key or "no-key",
            config=config or GenerateConfig(),
            service=SERVICE,
        )
        if self.server is not None:
            # The client is made (above) with the server's address; from here on `base_url` is
            # read only by the log and the cache key, which should name the weights, not a port.
            self.base_url = identity(self.server.model)

    @override
    async def generate(
        self,
        input: list[ChatMessage],
        tools: list[ToolInfo],
        tool_choice: ToolChoice,
        config: GenerateConfig,
    ) -> Any:
        server = self.server
        if server is None:
            return await super().generate(input, tools, tool_choice, config)
        async with server.turn():
            if not server.alive():  # died during an earlier request: no need to knock
                raise server.died()
            try:
                result = await super().generate(input, tools, tool_choice, config)
            except Exception as error:
                if not server.alive():
                    raise server.died() from error
                raise
        output = result[0] if isinstance(result, tuple) else result
        if isinstance(output, ModelOutput):
            output.metadata = {
                **(output.metadata or {}),
                "model_file": server.model.name,
                "model_sha256": server.model.sha256,
            }
        return result


@modelapi(name=SERVICE)
def gguf() -> type[GGUFAPI]:
    return GGUFAPI
