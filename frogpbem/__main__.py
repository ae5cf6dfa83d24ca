from frogpbem.cli import main

main()
