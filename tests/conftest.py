"""Settings every test module shares."""
import signal


def pytest_configure(config):
    # A shell starts a background job (`pytest ... &`, nohup) with SIGINT ignored, and roost
    # rightly keeps an ignored Ctrl-C ignored (arena/stopping.py).  The tests deliver SIGINT
    # on purpose (the interrupt tests, and the Dask tests' bounds, which end a stuck
    # tournament that way), so with SIGINT ignored they would wait for ever instead of
    # failing.  Give the test process, and the programs it starts, the foreground's Ctrl-C.
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
