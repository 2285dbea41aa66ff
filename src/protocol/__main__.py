from roost.protocol.server import main

main()
