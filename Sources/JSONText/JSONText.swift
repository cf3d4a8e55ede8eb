// Module JSONText.
