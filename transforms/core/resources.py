"""GPU resource hints for the model steps (training and RunInference) only.

Dataflow applies them per step: `--accelerator_type nvidia-tesla-t4 --accelerator_count 1
--min_ram 16GB` puts GPU workers under exactly the steps given `.with_resource_hints(
**gpu_hints(args))`; every other step keeps the default workers.
"""
import argparse


def add_gpu_args(parser: argparse.ArgumentParser) -> None:
    g = parser.add_argument_group("GPU resource hints (training and inference steps only)")
    g.add_argument("--accelerator_type", default=None,
                   help="e.g. nvidia-tesla-t4, nvidia-l4; unset: no accelerator hint")
    g.add_argument("--accelerator_count", type=int, default=1)
    g.add_argument("--accelerator", default=None,
                   help='raw Beam accelerator hint, overrides the two flags above, e.g. '
                        '"type:nvidia-tesla-t4;count:1;install-nvidia-driver"')
    g.add_argument("--min_ram", default=None, help="e.g. 16GB, per worker of those steps")


def accelerator_hint(accelerator_type, count: int = 1) -> str:
    return f"type:{accelerator_type};count:{count};install-nvidia-driver"


def gpu_hints(args) -> dict:
    """Keyword arguments for `.with_resource_hints(...)`; empty when no flag is set."""
    hints = {}
    accelerator = getattr(args, "accelerator", None)
    if not accelerator and getattr(args, "accelerator_type", None):
        accelerator = accelerator_hint(args.accelerator_type, args.accelerator_count)
    if accelerator:
        hints["accelerator"] = accelerator
    if getattr(args, "min_ram", None):
        hints["min_ram"] = args.min_ram
    return hints


def wants_gpu(args) -> bool:
    return "accelerator" in gpu_hints(args)
