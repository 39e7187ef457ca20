"""Allow `python -m warmline` (the same as the `warmline` command)."""

from warmline.launch import main

if __name__ == "__main__":
    main()
