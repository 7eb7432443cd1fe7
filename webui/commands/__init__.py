"""The subcommands of the ``octotable`` command line, one module each.

Each module defines ``HELP`` (one line), ``add_arguments(parser)`` and
``run(args) -> int`` (the process exit code).
"""
