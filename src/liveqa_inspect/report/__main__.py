from liveqa_inspect.report.cli import main

raise SystemExit(main())
