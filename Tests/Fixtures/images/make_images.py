#!/usr/bin/env python3
"""Draws the test images in this folder. Needs Pillow (pip install pillow),
only to regenerate them; the tests use the committed files.

  comic.png      a 400x300 line drawing, as xkcd comics are (PNG, palette)
  cover.jpg      a 200x300 book cover with colour fields (baseline JPEG)
  animated.gif   two 120x80 frames, as some comics are (GIF89a, looping)
"""
import os

from PIL import Image, ImageDraw

HERE = os.path.dirname(os.path.abspath(__file__))


def comic():
    image = Image.new("RGB", (400, 300), "white")
    draw = ImageDraw.Draw(image)
    draw.rectangle([10, 10, 389, 289], outline="black", width=3)
    draw.ellipse([170, 60, 230, 120], outline="black", width=3)  # a head
    draw.line([200, 120, 200, 210], fill="black", width=3)  # a body
    draw.line([200, 150, 150, 180], fill="black", width=3)
    draw.line([200, 150, 250, 120], fill="black", width=3)
    draw.line([200, 210, 160, 270], fill="black", width=3)
    draw.line([200, 210, 240, 270], fill="black", width=3)
    draw.text((30, 30), "import antigravity", fill="black")
    image.convert("P", palette=Image.ADAPTIVE, colors=4).save(os.path.join(HERE, "comic.png"), optimize=True)


def cover():
    image = Image.new("RGB", (200, 300), (120, 30, 40))
    draw = ImageDraw.Draw(image)
    draw.rectangle([20, 40, 179, 140], fill=(230, 200, 120))
    draw.rectangle([20, 180, 179, 260], fill=(30, 60, 120))
    draw.text((40, 80), "PRIDE AND", fill="black")
    draw.text((40, 100), "PREJUDICE", fill="black")
    image.save(os.path.join(HERE, "cover.jpg"), quality=80)


def animated():
    frames = []
    for colour in [(200, 20, 20), (20, 20, 200)]:
        frame = Image.new("RGB", (120, 80), "white")
        ImageDraw.Draw(frame).ellipse([30, 10, 90, 70], fill=colour)
        frames.append(frame.convert("P", palette=Image.ADAPTIVE, colors=8))
    frames[0].save(os.path.join(HERE, "animated.gif"), save_all=True, append_images=frames[1:], duration=500, loop=0)


if __name__ == "__main__":
    comic()
    cover()
    animated()
