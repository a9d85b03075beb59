import sys

from liveqa_inspect.report.cli import main

sys.exit(main())
