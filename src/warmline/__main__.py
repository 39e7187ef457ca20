"""Allow `python -m warmline`."""

from warmline.cli import main

if __name__ == "__main__":
    main()
