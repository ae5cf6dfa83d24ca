from frogpbem.console import main

main()
