from numberup_cli.main import main

main()
