"""needs_torch.py - imported first by the differential tests whose oracle is
Debian's python3-torch: where torch (or numpy) cannot be imported it prints
a SKIP line and exits 0, since without the oracle there is nothing to
compare against and the test is skipped rather than failed.

    sys.path.insert(0, ".../test/lib")
    import needs_torch  # noqa: E402,F401
    import torch  # noqa: E402
"""

import sys

try:
    import numpy  # noqa: F401
    import torch  # noqa: F401
except ImportError as error:  # pragma: no cover - depends on the machine
    print(f"SKIP: torch/numpy not importable ({error}); run tools/setup.sh")
    sys.exit(0)
