from tolmach.cli import main

main()
