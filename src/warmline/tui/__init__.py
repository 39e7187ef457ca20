"""The Textual cockpit. Reads through `warmline.store`, acts through `warmline.actions`."""
