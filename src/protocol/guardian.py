"""The guardian of a process that starts engine programs: ``python -m roost.protocol.guardian
PREFIX`` waits for the end of its stdin, which comes when the process that started it is
gone, however it went (killed included), and then ends every process whose engine mark
starts with PREFIX: the programs that process started and everything they started.  A
process that ends its programs itself leaves the guardian nothing to do."""
import os
import sys

from roost.protocol.processes import sweep


def main(argv=None):
    prefix = (argv or sys.argv[1:])[0]
    while True:
        try:
            if not os.read(0, 4096):
                break
        except InterruptedError:
            continue
        except OSError:
            break
    sweep(lambda mark: mark.startswith(prefix))


if __name__ == "__main__":
    main()
